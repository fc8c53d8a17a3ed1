#!/bin/bash
# Debian's Ansible (ansible-core 2.14, cisco.nxos 4.x, network_cli over
# paramiko) against `mdsim serve`, unpatched: nxos_command, nxos_facts
# with its default subsets, nxos_config with parents (changed, then not
# changed on the same run again, saved when modified; with defaults, which
# reads `show running-config all`) and cli_config. One
# playbook, its checks as assert tasks: ansible's start-up is the slow
# part. Skipped (77) only when ansible or the collection is missing.
# usage: test_ansible.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
py=/usr/bin/python3 # Debian's, which has the packages (not a pyenv's first in PATH)
[ -x "$py" ] || py=python3
command -v ansible-playbook > /dev/null && "$py" -c 'import ansible_collections.cisco.nxos, paramiko' 2> /dev/null ||
    { echo "skip: no ansible-playbook with cisco.nxos and paramiko"; exit 77; }

serve_start "$work/lab.db" || { fail "serve"; finish; }

# Everything ansible writes stays in the test's directory, and no
# ansible.cfg of the machine's or the user's applies.
mkdir -p "$work/ansible"
cat > "$work/ansible.cfg" <<EOF
[defaults]
home = $work/ansible
local_tmp = $work/ansible/tmp
host_key_checking = False
retry_files_enabled = False
deprecation_warnings = False
nocolor = True
[persistent_connection]
control_path_dir = $work/ansible/pc
command_timeout = 30
connect_timeout = 30
EOF
export ANSIBLE_CONFIG="$work/ansible.cfg"
unset ANSIBLE_INVENTORY

cat > "$work/inventory.ini" <<EOF
[mds]
MDS1 ansible_host=127.0.0.1 ansible_port=$SP

[mds:vars]
ansible_connection=ansible.netcommon.network_cli
ansible_network_os=cisco.nxos.nxos
ansible_network_cli_ssh_type=paramiko
ansible_user=admin
ansible_password=admin
EOF

cat > "$work/play.yml" <<'EOF'
- hosts: mds
  gather_facts: false
  tasks:
    - name: nxos_command
      cisco.nxos.nxos_command:
        commands: show version
      register: ver
    - assert:
        that: "'system:    version 5.2(8)' in ver.stdout[0]"

    - name: nxos_facts, default subsets
      cisco.nxos.nxos_facts:
    - assert:
        that:
          - ansible_net_platform == 'DS-C9509'
          - "'MDS 9509' in ansible_net_model"
          - ansible_net_version == '5.2(8)'
          - ansible_net_hostname == 'MDS1'
          - ansible_net_license_hostid is match('FOX[0-9]+$')
          - ansible_net_serialnum is defined
          - ansible_net_image is match('bootflash:')

    - name: nxos_config with parents
      cisco.nxos.nxos_config:
        parents: interface GigabitEthernet2/2
        lines: switchport description X
        save_when: modified
      register: cfg1
    - name: nxos_config with parents, again
      cisco.nxos.nxos_config:
        parents: interface GigabitEthernet2/2
        lines: switchport description X
        save_when: modified
      register: cfg2
    - name: nxos_config with defaults (show running-config all), a default value
      cisco.nxos.nxos_config:
        parents: interface GigabitEthernet2/4
        lines: switchport mtu 1500
        defaults: true
      register: cfg3
    - assert:
        that: [cfg1.changed, not cfg2.changed, not cfg3.changed]

    - name: cli_config
      ansible.netcommon.cli_config:
        config: "interface GigabitEthernet2/3\n  switchport description Y"
      register: cli1
    - name: cli_config, again
      ansible.netcommon.cli_config:
        config: "interface GigabitEthernet2/3\n  switchport description Y"
      register: cli2
    - assert:
        that: [cli1.changed, not cli2.changed]

    - name: what the switch holds now
      cisco.nxos.nxos_command:
        commands:
          - show running-config
          - show startup-config
      register: run
    - assert:
        that:
          - "'interface GigabitEthernet2/2\n  switchport description X' in run.stdout[0]"
          - "'interface GigabitEthernet2/3\n  switchport description Y' in run.stdout[0]"
          - "'switchport description X' in run.stdout[1]"
EOF

timeout 300 ansible-playbook -i "$work/inventory.ini" "$work/play.yml" > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "ansible-playbook exit $rc: $(grep -E -A12 'fatal|FAILED|ERROR' "$work/out" | head -40)"
grep -Eq 'MDS1 +: ok=13 +changed=2 +unreachable=0 +failed=0' "$work/out" ||
    fail "recap: $(grep -A2 'PLAY RECAP' "$work/out")"

grep -q -e Sanitizer -e 'runtime error' "$SERVE_ERR" && fail "serve: $(grep -A5 -e Sanitizer -e 'runtime error' "$SERVE_ERR")"
finish
