-- The system log of each switch (docs/logging.md). Messages come from the
-- logging feature's queue (backend/logging/syslog.c), in the order they
-- were emitted (id); seq numbers a switch's messages 1, 2, ... so that the
-- logfile keeps its newest ones with one index seek. A reload clears the
-- logfile (a switch's is in memory); `write erase` does not.
CREATE TABLE syslog_message (
    id        INTEGER PRIMARY KEY,
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    lab_ns    INTEGER NOT NULL CHECK (lab_ns >= 0), -- the lab clock when emitted
    time_s    INTEGER NOT NULL,                     -- the switch's calendar then, Unix seconds (UTC)
    severity  INTEGER NOT NULL CHECK (severity BETWEEN 0 AND 7),
    facility  TEXT NOT NULL CHECK (length(facility) BETWEEN 1 AND 32),
    mnemonic  TEXT NOT NULL CHECK (length(mnemonic) BETWEEN 1 AND 64),
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 0 AND 4094), -- 0: no %$VSAN n%$ tag
    hostname  TEXT NOT NULL CHECK (length(hostname) BETWEEN 1 AND 32),
    text      TEXT NOT NULL CHECK (length(text) <= 400)
);
CREATE UNIQUE INDEX syslog_message_seq ON syslog_message(switch_id, seq);

-- Where a switch's messages go (`logging console|monitor|logfile`). No
-- row: the defaults (console 2, monitor 5, logfile 5 of 4194304 bytes);
-- -1: that destination is off (`no logging console`).
CREATE TABLE logging_config (
    switch_id INTEGER PRIMARY KEY REFERENCES switch(id) ON DELETE CASCADE,
    console   INTEGER NOT NULL CHECK (console BETWEEN -1 AND 7),
    monitor   INTEGER NOT NULL CHECK (monitor BETWEEN -1 AND 7),
    logfile   INTEGER NOT NULL CHECK (logfile BETWEEN -1 AND 7),
    size      INTEGER NOT NULL CHECK (size BETWEEN 4096 AND 4194304)
);
