-- The lab's storage arrays (lab files' `array`, docs/array.md): each is a
-- lab host (its iSCSI ports are the host's eth ports) with controllers,
-- logical drives and an FC port. Topology, as hosts are; the SMcli
-- settings (cache flags, controller availability, the monitor's session)
-- are kept in the same rows.
CREATE TABLE array (
    host_id     INTEGER PRIMARY KEY REFERENCES host(id) ON DELETE CASCADE,
    controllers INTEGER NOT NULL DEFAULT 2 CHECK (controllers BETWEEN 1 AND 2),
    online_a    INTEGER NOT NULL DEFAULT 1 CHECK (online_a IN (0, 1)),
    online_b    INTEGER NOT NULL DEFAULT 1 CHECK (online_b IN (0, 1)),
    disks       INTEGER NOT NULL DEFAULT 15 CHECK (disks BETWEEN 2 AND 45),
    monitor_interval   INTEGER NOT NULL DEFAULT 5 CHECK (monitor_interval BETWEEN 3 AND 3600),
    monitor_iterations INTEGER NOT NULL DEFAULT 5 CHECK (monitor_iterations BETWEEN 1 AND 1200),
    CHECK (online_a + online_b >= 1)
);
CREATE TABLE array_ld (
    host_id      INTEGER NOT NULL REFERENCES array(host_id) ON DELETE CASCADE,
    idx          INTEGER NOT NULL CHECK (idx BETWEEN 0 AND 15),
    name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 30),
    raid         INTEGER NOT NULL CHECK (raid IN (5, 10)),
    disks        INTEGER NOT NULL CHECK (disks BETWEEN 2 AND 45),
    capacity_gb  INTEGER NOT NULL CHECK (capacity_gb BETWEEN 1 AND 65536),
    owner        INTEGER NOT NULL DEFAULT 0 CHECK (owner IN (0, 1)),
    write_cache  INTEGER NOT NULL DEFAULT 1 CHECK (write_cache IN (0, 1)),
    mirror_cache INTEGER NOT NULL DEFAULT 1 CHECK (mirror_cache IN (0, 1)),
    read_cache   INTEGER NOT NULL DEFAULT 1 CHECK (read_cache IN (0, 1)),
    PRIMARY KEY (host_id, idx),
    UNIQUE (host_id, name)
);
-- Its FC port: a target N port logged in on a switch's VSAN.
CREATE TABLE array_fc (
    host_id   INTEGER PRIMARY KEY REFERENCES array(host_id) ON DELETE CASCADE,
    pwwn      TEXT NOT NULL CHECK (length(pwwn) = 23), -- hh:hh:hh:hh:hh:hh:hh:hh
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4094)
);
-- Files the array's CLI saves (performance statistics), 1 MB each at most.
CREATE TABLE array_file (
    host_id INTEGER NOT NULL REFERENCES array(host_id) ON DELETE CASCADE,
    name    TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    content TEXT NOT NULL CHECK (length(content) <= 1048576),
    PRIMARY KEY (host_id, name)
);
