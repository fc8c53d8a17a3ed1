-- Each switch's clock (`clock set`, docs/lab-clock.md): how many
-- nanoseconds it is ahead of the lab's clock (the wall clock when the lab
-- was opened, plus lab time). Kept by reload and write erase as a real
-- switch's hardware clock is, never in its configuration. A switch with
-- no row reads the lab's clock. Until now one lab-wide offset in seconds
-- (lab_meta clock_delta) set every switch's clock: each switch keeps it.
CREATE TABLE switch_clock (
    switch_id INTEGER PRIMARY KEY REFERENCES switch(id) ON DELETE CASCADE,
    offset_ns INTEGER NOT NULL CHECK (offset_ns BETWEEN -4000000000000000000 AND 4000000000000000000)
);
INSERT INTO switch_clock(switch_id, offset_ns)
    SELECT s.id, CAST(m.value AS INTEGER) * 1000000000 FROM switch s, lab_meta m
    WHERE m.key = 'clock_delta' AND CAST(m.value AS INTEGER) != 0
      AND abs(CAST(m.value AS INTEGER)) < 4000000000;
DELETE FROM lab_meta WHERE key = 'clock_delta';
