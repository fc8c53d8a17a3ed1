-- Zoning (docs/zoning.md): the full zone database (zones and their
-- members, zonesets and their zones, per VSAN) and the zoneset a switch
-- activated itself, copied at activation as NX-OS does (later edits of the
-- full database change nothing active until the next activation). Names:
-- 1-64 characters, a letter first, then letters, digits, _ - $ ^. A VSAN
-- need not exist yet (as for the default zone). Rows keep their order of
-- creation (rowid), which the shows and the running configuration follow.
CREATE TABLE zone (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    name      TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    PRIMARY KEY (switch_id, vsan, name)
);

-- kind 'pwwn': value the WWN as hh:hh:hh:hh:hh:hh:hh:hh; 'fcid': 0xhhhhhh.
CREATE TABLE zone_member (
    switch_id INTEGER NOT NULL,
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    zone      TEXT NOT NULL,
    kind      TEXT NOT NULL CHECK (kind IN ('pwwn', 'fcid')),
    value     TEXT NOT NULL CHECK ((kind = 'pwwn' AND length(value) = 23) OR (kind = 'fcid' AND length(value) = 8)),
    PRIMARY KEY (switch_id, vsan, zone, kind, value),
    FOREIGN KEY (switch_id, vsan, zone) REFERENCES zone(switch_id, vsan, name) ON DELETE CASCADE
);

CREATE TABLE zoneset (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    name      TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    PRIMARY KEY (switch_id, vsan, name)
);

-- A zone named in a zoneset need not exist (it is passed over at
-- activation); deleting a zone takes it out of the zonesets.
CREATE TABLE zoneset_member (
    switch_id INTEGER NOT NULL,
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    zoneset   TEXT NOT NULL,
    zone      TEXT NOT NULL CHECK (length(zone) BETWEEN 1 AND 64),
    PRIMARY KEY (switch_id, vsan, zoneset, zone),
    FOREIGN KEY (switch_id, vsan, zoneset) REFERENCES zoneset(switch_id, vsan, name) ON DELETE CASCADE
);

-- The zoneset this switch activated in a VSAN, with the lab clock's
-- nanoseconds at the activation: an activation again of the same content
-- is still news to the fabric (another switch's may have replaced it).
CREATE TABLE zone_active (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    zoneset   TEXT NOT NULL CHECK (length(zoneset) BETWEEN 1 AND 64),
    at_ns     INTEGER NOT NULL CHECK (at_ns >= 0),
    PRIMARY KEY (switch_id, vsan)
);

CREATE TABLE zone_active_member (
    switch_id INTEGER NOT NULL,
    vsan      INTEGER NOT NULL CHECK (vsan BETWEEN 1 AND 4093),
    zone      TEXT NOT NULL CHECK (length(zone) BETWEEN 1 AND 64),
    kind      TEXT NOT NULL CHECK (kind IN ('pwwn', 'fcid')),
    value     TEXT NOT NULL CHECK ((kind = 'pwwn' AND length(value) = 23) OR (kind = 'fcid' AND length(value) = 8)),
    PRIMARY KEY (switch_id, vsan, zone, kind, value),
    FOREIGN KEY (switch_id, vsan) REFERENCES zone_active(switch_id, vsan) ON DELETE CASCADE
);
