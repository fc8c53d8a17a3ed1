-- IP Network Simulator (`ips netsim ...`): exec-mode state of a switch, kept
-- in the lab so every front-end and the engine see it, but never part of the
-- running configuration (reload and factory reset forget it, and so does
-- `no san-ext-tuner enable`).

-- The Gigabit Ethernet port pairs the simulator bridges, as typed
-- (`ips netsim enable interface gigabitethernet a gigabitethernet b`).
CREATE TABLE netsim_pair (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    a_slot    INTEGER NOT NULL,
    a_port    INTEGER NOT NULL,
    b_slot    INTEGER NOT NULL,
    b_port    INTEGER NOT NULL,
    PRIMARY KEY (switch_id, a_slot, a_port),
    UNIQUE (switch_id, b_slot, b_port),
    CHECK (a_slot <> b_slot OR a_port <> b_port)
);

-- One row per bridged port, i.e. per direction (keyed by the ingress port),
-- created and deleted with its pair; the primary key is what keeps a port
-- in one pair at most. NULL = impairment not configured.
CREATE TABLE netsim_ingress (
    switch_id         INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    slot              INTEGER NOT NULL,
    port              INTEGER NOT NULL,
    delay_us          INTEGER CHECK (delay_us BETWEEN 0 AND 150000),
    rate_kbps         INTEGER CHECK (rate_kbps BETWEEN 1000 AND 1000000),
    qsize_kb          INTEGER CHECK (qsize_kb BETWEEN 1 AND 1000),       -- 1 KB = 1000 B
    drop_nth          INTEGER CHECK (drop_nth BETWEEN 1 AND 10000),
    drop_nth_burst    INTEGER CHECK (drop_nth_burst BETWEEN 1 AND 100),
    drop_random       INTEGER CHECK (drop_random BETWEEN 1 AND 10000),   -- per 10,000
    drop_random_burst INTEGER CHECK (drop_random_burst BETWEEN 1 AND 100),
    reorder_mode      INTEGER CHECK (reorder_mode IN (0, 1)),            -- 0 nth, 1 random
    reorder_value     INTEGER CHECK (reorder_value BETWEEN 1 AND 10000),
    reorder_distance  INTEGER CHECK (reorder_distance BETWEEN 1 AND 10),
    PRIMARY KEY (switch_id, slot, port),
    CHECK ((drop_nth IS NULL) = (drop_nth_burst IS NULL)),
    CHECK ((drop_random IS NULL) = (drop_random_burst IS NULL)),
    CHECK ((reorder_mode IS NULL) = (reorder_value IS NULL)
           AND (reorder_mode IS NULL) = (reorder_distance IS NULL))
);
