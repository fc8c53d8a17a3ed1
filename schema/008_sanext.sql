-- SAN Extension Tuner (`san-ext-tuner`): exec-mode state of a switch, like
-- netsim's: kept in the lab so every session and the engine see it, never
-- part of the running configuration; reload, factory reset and `no
-- san-ext-tuner enable` forget it (the sanext feature owns these tables).
-- WWNs are text, lower-case hh:hh:hh:hh:hh:hh:hh:hh.

-- The node WWN `nwwn` gives the virtual N ports created after it.
CREATE TABLE sanext_node (
    switch_id INTEGER PRIMARY KEY REFERENCES switch(id) ON DELETE CASCADE,
    nwwn      TEXT NOT NULL CHECK (length(nwwn) = 23)
);

CREATE TABLE sanext_nport (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    pwwn      TEXT NOT NULL CHECK (length(pwwn) = 23),
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    nwwn      TEXT NOT NULL CHECK (length(nwwn) = 23),
    slot      INTEGER NOT NULL,
    port      INTEGER NOT NULL,
    pattern   TEXT, -- data-pattern-file, bootflash: name; NULL: all zeros
    PRIMARY KEY (switch_id, pwwn, vsan)
);

-- A running command of an N port; `stop` deletes it. `start` orders the
-- starts of a switch: a command started again under the same id is new.
CREATE TABLE sanext_cmd (
    switch_id    INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    pwwn         TEXT NOT NULL,
    vsan         INTEGER NOT NULL,
    cmd_id       INTEGER NOT NULL CHECK (cmd_id BETWEEN 1 AND 2147483647),
    op           INTEGER NOT NULL CHECK (op BETWEEN 0 AND 3), -- read, write, tape-read, tape-write
    target       TEXT NOT NULL CHECK (length(target) = 23),
    size         INTEGER NOT NULL CHECK (size BETWEEN 512 AND 16777216),
    outstanding  INTEGER NOT NULL CHECK (outstanding BETWEEN 1 AND 64),
    transactions INTEGER NOT NULL CHECK (transactions >= 0),  -- 0: continuous
    start        INTEGER NOT NULL,
    PRIMARY KEY (switch_id, pwwn, vsan, cmd_id)
);
