-- The management port of each switch (`interface mgmt0`): a row only when
-- it has an address.
CREATE TABLE mgmt_port (
    switch_id INTEGER PRIMARY KEY REFERENCES switch(id) ON DELETE CASCADE,
    ip_addr   INTEGER NOT NULL CHECK (ip_addr BETWEEN 0 AND 4294967295),
    ip_mask   INTEGER NOT NULL CHECK (ip_mask BETWEEN 0 AND 4294967295)
);
