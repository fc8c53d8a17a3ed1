-- A lab: its switches, their hardware and the cables between ports.
CREATE TABLE lab_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE switch (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL UNIQUE,
    chassis  TEXT NOT NULL
);
CREATE TABLE module (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    slot      INTEGER NOT NULL CHECK (slot BETWEEN 1 AND 13),
    model     TEXT NOT NULL,
    PRIMARY KEY (switch_id, slot)
);
CREATE TABLE link (
    a_switch INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    a_port   TEXT NOT NULL,
    b_switch INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    b_port   TEXT NOT NULL,
    UNIQUE (a_switch, a_port),
    UNIQUE (b_switch, b_port)
);

-- Running configuration, typed, one row per configured object.
CREATE TABLE system_config (
    switch_id INTEGER PRIMARY KEY REFERENCES switch(id) ON DELETE CASCADE,
    hostname  TEXT NOT NULL CHECK (length(hostname) BETWEEN 1 AND 32)
);
CREATE TABLE feature (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    name      TEXT NOT NULL,
    PRIMARY KEY (switch_id, name)
);
CREATE TABLE ge_port (
    switch_id   INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    slot        INTEGER NOT NULL,
    port        INTEGER NOT NULL,
    ip_addr     INTEGER CHECK (ip_addr BETWEEN 0 AND 4294967295),
    ip_mask     INTEGER CHECK (ip_mask BETWEEN 0 AND 4294967295),
    mtu         INTEGER NOT NULL DEFAULT 1500 CHECK (mtu BETWEEN 576 AND 9000),
    description TEXT CHECK (length(description) <= 254),
    shutdown    INTEGER NOT NULL DEFAULT 1 CHECK (shutdown IN (0, 1)),
    PRIMARY KEY (switch_id, slot, port),
    CHECK ((ip_addr IS NULL) = (ip_mask IS NULL))
);

-- Startup configuration is text, as on the switch; reload replays it.
CREATE TABLE startup_config (
    switch_id INTEGER PRIMARY KEY REFERENCES switch(id) ON DELETE CASCADE,
    body      TEXT NOT NULL,
    saved_at  INTEGER NOT NULL
);

-- Console history, per lab, so it survives the process.
CREATE TABLE history (
    id        INTEGER PRIMARY KEY,
    line      TEXT NOT NULL
);
