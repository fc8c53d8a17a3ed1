-- Configured domain IDs (`fcdomain domain N static|preferred vsan V`): a
-- row per VSAN that has one; none, the default, is `domain 0 preferred`
-- (any domain). The running domain is the engine's (docs/fcdomain.md).
CREATE TABLE fcdomain_domain (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    domain    INTEGER NOT NULL CHECK (domain BETWEEN 1 AND 239),
    static    INTEGER NOT NULL CHECK (static IN (0, 1)),
    PRIMARY KEY (switch_id, vsan)
);

-- A VSAN deleted takes its fcdomain configuration with it (VSAN 1 is
-- never deleted: its row only renames it).
CREATE TRIGGER vsan_leaves_fcdomain AFTER DELETE ON vsan WHEN OLD.id <> 1
BEGIN
    DELETE FROM fcdomain_domain WHERE switch_id = OLD.switch_id AND vsan = OLD.id;
END;
