-- Terminal line settings of each switch (`line console`, `line vty`). A
-- line without a row has the defaults: no exec-timeout.
CREATE TABLE line_config (
    switch_id    INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    line         TEXT NOT NULL CHECK (line IN ('console', 'vty')),
    exec_timeout INTEGER NOT NULL CHECK (exec_timeout BETWEEN 0 AND 525600), -- minutes, 0 = never
    PRIMARY KEY (switch_id, line)
);
