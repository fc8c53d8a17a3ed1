-- bootflash: of each switch, a small file store (storage, not
-- configuration: reload and `write erase` keep it). Names are plain file
-- names; the handlers check the same bounds first.
CREATE TABLE bootflash (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    name      TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 63 AND name NOT GLOB '*[^A-Za-z0-9._-]*'
                                   AND instr(name, '..') = 0),
    bytes     BLOB NOT NULL CHECK (length(bytes) <= 1048576),
    mtime     INTEGER NOT NULL, -- the switch's calendar time when written, seconds
    PRIMARY KEY (switch_id, name)
);
