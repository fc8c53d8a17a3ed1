-- FSPF per interface and VSAN (`fspf cost N vsan V` in interface mode):
-- the cost the interface's end of its ISL advertises in that VSAN; no
-- row, the cost of the link's bandwidth (docs/fspf.md).
CREATE TABLE fspf_if (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    ifname    TEXT NOT NULL CHECK (length(ifname) BETWEEN 1 AND 15),
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    cost      INTEGER NOT NULL CHECK (cost BETWEEN 1 AND 65535),
    PRIMARY KEY (switch_id, ifname, vsan)
);

-- An interface deleted, or a VSAN, takes its FSPF configuration along.
CREATE TRIGGER fcip_if_leaves_fspf AFTER DELETE ON fcip_if
BEGIN
    DELETE FROM fspf_if WHERE switch_id = OLD.switch_id AND ifname = 'fcip' || OLD.id;
END;

CREATE TRIGGER vsan_leaves_fspf AFTER DELETE ON vsan WHEN OLD.id <> 1
BEGIN
    DELETE FROM fspf_if WHERE switch_id = OLD.switch_id AND vsan = OLD.id;
END;
