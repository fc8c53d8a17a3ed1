-- Default zoning (`zone default-zone permit vsan N`): a row per VSAN whose
-- default zone permits; deny, the default, has no row. A VSAN need not
-- exist yet (the reference capture permits VSAN 100 before creating it).
CREATE TABLE zone_default_permit (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    PRIMARY KEY (switch_id, vsan)
);
