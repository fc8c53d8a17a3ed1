-- FSPF per interface and VSAN: the cost the interface's end of its ISL
-- advertises (`fspf cost N vsan V`; NULL, the cost of the link's
-- bandwidth) and its hellos' intervals (`fspf hello-interval`, `fspf
-- dead-interval`; NULL, 20 and 80 s). A row has at least one; the dead
-- interval exceeds the hello interval, defaults counted (docs/fspf.md).
CREATE TABLE fspf_if (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    ifname    TEXT NOT NULL CHECK (length(ifname) BETWEEN 1 AND 15),
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    cost      INTEGER CHECK (cost BETWEEN 1 AND 65535),
    hello     INTEGER CHECK (hello BETWEEN 1 AND 65535),
    dead      INTEGER CHECK (dead BETWEEN 2 AND 65535),
    PRIMARY KEY (switch_id, ifname, vsan),
    CHECK (cost IS NOT NULL OR hello IS NOT NULL OR dead IS NOT NULL),
    CHECK (coalesce(dead, 80) > coalesce(hello, 20))
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
