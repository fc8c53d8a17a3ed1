-- FCIP configuration of a switch (`feature fcip`): profiles and fcip
-- interfaces, a row per object that exists, every column at its default
-- until configured. Units are the engine's: kbps, microseconds,
-- milliseconds, seconds, KB as typed. Turning the feature off deletes both
-- tables' rows of the switch.
CREATE TABLE fcip_profile (
    switch_id    INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    id           INTEGER NOT NULL CHECK (id BETWEEN 1 AND 255),
    ip_addr      INTEGER CHECK (ip_addr BETWEEN 0 AND 4294967295),
    port         INTEGER NOT NULL DEFAULT 3225 CHECK (port BETWEEN 1 AND 65535),
    keepalive_s  INTEGER NOT NULL DEFAULT 60 CHECK (keepalive_s BETWEEN 1 AND 7200),
    max_retrans  INTEGER NOT NULL DEFAULT 4 CHECK (max_retrans BETWEEN 1 AND 8),
    min_rto_ms   INTEGER NOT NULL DEFAULT 200 CHECK (min_rto_ms BETWEEN 200 AND 5000),
    pmtu         INTEGER NOT NULL DEFAULT 1 CHECK (pmtu IN (0, 1)),
    pmtu_reset_s INTEGER NOT NULL DEFAULT 3600 CHECK (pmtu_reset_s BETWEEN 60 AND 3600),
    sack         INTEGER NOT NULL DEFAULT 1 CHECK (sack IN (0, 1)),
    max_bw_kbps  INTEGER NOT NULL DEFAULT 1000000 CHECK (max_bw_kbps BETWEEN 1000 AND 1000000),
    min_bw_kbps  INTEGER NOT NULL DEFAULT 500000 CHECK (min_bw_kbps BETWEEN 1000 AND 1000000),
    rtt_us       INTEGER NOT NULL DEFAULT 1000 CHECK (rtt_us BETWEEN 0 AND 300000),
    cwm          INTEGER NOT NULL DEFAULT 1 CHECK (cwm IN (0, 1)),
    cwm_burst_kb INTEGER NOT NULL DEFAULT 50 CHECK (cwm_burst_kb BETWEEN 10 AND 100),
    max_jitter_us INTEGER NOT NULL DEFAULT 1000 CHECK (max_jitter_us BETWEEN 0 AND 10000),
    send_buf_kb  INTEGER NOT NULL DEFAULT 0 CHECK (send_buf_kb BETWEEN 0 AND 8192),
    PRIMARY KEY (switch_id, id),
    CHECK (min_bw_kbps <= max_bw_kbps)
);

-- allowed_vsans: the canonical range list (`1-10,20`), '' for none.
-- compression: 0 off, 1 auto, 2 mode1, 3 mode2, 4 mode3.
CREATE TABLE fcip_if (
    switch_id       INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    id              INTEGER NOT NULL CHECK (id BETWEEN 1 AND 255),
    profile         INTEGER CHECK (profile BETWEEN 1 AND 255),
    peer_ip         INTEGER CHECK (peer_ip BETWEEN 0 AND 4294967295),
    peer_port       INTEGER NOT NULL DEFAULT 3225 CHECK (peer_port BETWEEN 1 AND 65535),
    passive         INTEGER NOT NULL DEFAULT 0 CHECK (passive IN (0, 1)),
    tcp_conns       INTEGER NOT NULL DEFAULT 2 CHECK (tcp_conns BETWEEN 1 AND 2),
    compression     INTEGER NOT NULL DEFAULT 0 CHECK (compression BETWEEN 0 AND 4),
    write_acc       INTEGER NOT NULL DEFAULT 0 CHECK (write_acc IN (0, 1)),
    tape_acc        INTEGER NOT NULL DEFAULT 0 CHECK (tape_acc IN (0, 1)),
    time_stamp      INTEGER NOT NULL DEFAULT 0 CHECK (time_stamp IN (0, 1)),
    ts_diff_ms      INTEGER NOT NULL DEFAULT 2000 CHECK (ts_diff_ms BETWEEN 500 AND 10000),
    trunk_mode      TEXT NOT NULL DEFAULT 'on' CHECK (trunk_mode IN ('on', 'off', 'auto')),
    allowed_vsans   TEXT NOT NULL DEFAULT '1-4093' CHECK (length(allowed_vsans) <= 20000),
    description     TEXT CHECK (length(description) <= 254),
    shutdown        INTEGER NOT NULL DEFAULT 1 CHECK (shutdown IN (0, 1)),
    PRIMARY KEY (switch_id, id),
    CHECK (tape_acc <= write_acc)
);
