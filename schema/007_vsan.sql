-- VSANs of a switch (`vsan database`). VSAN 1 exists without a row (a row
-- only renames it); 4079 and 4094 are reserved and never stored.
CREATE TABLE vsan (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    id        INTEGER NOT NULL CHECK (id BETWEEN 1 AND 4093),
    name      TEXT CHECK (length(name) BETWEEN 1 AND 32),
    PRIMARY KEY (switch_id, id),
    UNIQUE (switch_id, name)
);

-- Port VSAN of an interface (`vsan 10 interface fcip1`); an interface
-- without a row is in VSAN 1. 4094 holds the ports of a deleted VSAN.
CREATE TABLE vsan_member (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    ifname    TEXT NOT NULL CHECK (length(ifname) BETWEEN 1 AND 31),
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 2 AND 4094),
    PRIMARY KEY (switch_id, ifname)
);

-- An interface that goes (`no interface fcip1`, `no feature fcip`, a
-- reload) leaves no membership behind, whoever deleted it.
CREATE TRIGGER fcip_if_leaves_vsan AFTER DELETE ON fcip_if
BEGIN
    DELETE FROM vsan_member WHERE switch_id = OLD.switch_id AND ifname = 'fcip' || OLD.id;
END;
