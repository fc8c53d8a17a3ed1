-- iSCSI (`feature iscsi`): the IPS modules whose ports carry iscsiS/P
-- interfaces (`iscsi enable module 2`), and those interfaces that differ
-- from the default (shut, no description); an interface at its defaults
-- has no row.
CREATE TABLE iscsi_module (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    slot      INTEGER NOT NULL CHECK (slot BETWEEN 1 AND 13),
    PRIMARY KEY (switch_id, slot)
);

CREATE TABLE iscsi_if (
    switch_id   INTEGER NOT NULL,
    slot        INTEGER NOT NULL,
    port        INTEGER NOT NULL CHECK (port BETWEEN 1 AND 48),
    description TEXT CHECK (length(description) BETWEEN 1 AND 254),
    shutdown    INTEGER NOT NULL DEFAULT 1 CHECK (shutdown IN (0, 1)),
    PRIMARY KEY (switch_id, slot, port),
    FOREIGN KEY (switch_id, slot) REFERENCES iscsi_module(switch_id, slot) ON DELETE CASCADE
);
