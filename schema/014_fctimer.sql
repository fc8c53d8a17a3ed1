-- Fibre Channel timers (`fctimer e_d_tov N`, `fctimer r_a_tov N`), per
-- switch; no row, the defaults (2000 and 10000 ms). A link's ELP carries
-- them: two ends that differ isolate it (docs/fctimer.md).
CREATE TABLE fctimer (
    switch_id INTEGER PRIMARY KEY REFERENCES switch(id) ON DELETE CASCADE,
    e_d_tov   INTEGER NOT NULL CHECK (e_d_tov BETWEEN 1000 AND 4000),
    r_a_tov   INTEGER NOT NULL CHECK (r_a_tov BETWEEN 5000 AND 100000)
);
