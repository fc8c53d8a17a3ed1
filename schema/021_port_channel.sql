-- Port-channels (`interface port-channel N`, 1-256) of a switch and the
-- fcip interfaces that are their members (`channel-group N [force]`), a
-- row each; docs/port-channel.md. A channel is created up ([G]), trunk
-- mode on and every VSAN allowed, as an fcip interface's switchport,
-- channel mode on.
CREATE TABLE port_channel (
    switch_id  INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    id         INTEGER NOT NULL CHECK (id BETWEEN 1 AND 256),
    shutdown   INTEGER NOT NULL DEFAULT 0 CHECK (shutdown IN (0, 1)),
    trunk_mode TEXT NOT NULL DEFAULT 'on' CHECK (trunk_mode IN ('on', 'off', 'auto')),
    allowed_vsans TEXT NOT NULL DEFAULT '1-4093' CHECK (length(allowed_vsans) <= 20000),
    mode_active INTEGER NOT NULL DEFAULT 0 CHECK (mode_active IN (0, 1)), -- `channel mode active`
    PRIMARY KEY (switch_id, id)
);

CREATE TABLE port_channel_member (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    fcip_id   INTEGER NOT NULL CHECK (fcip_id BETWEEN 1 AND 255),
    channel   INTEGER NOT NULL CHECK (channel BETWEEN 1 AND 256),
    PRIMARY KEY (switch_id, fcip_id),
    FOREIGN KEY (switch_id, channel) REFERENCES port_channel(switch_id, id) ON DELETE CASCADE
);

-- A member interface that goes leaves its channel, whoever deletes it.
CREATE TRIGGER fcip_if_leaves_channel AFTER DELETE ON fcip_if
BEGIN
    DELETE FROM port_channel_member WHERE switch_id = OLD.switch_id AND fcip_id = OLD.id;
END;

-- A channel deleted takes its memberships along (foreign keys may be off).
CREATE TRIGGER port_channel_leaves_members AFTER DELETE ON port_channel
BEGIN
    DELETE FROM port_channel_member WHERE switch_id = OLD.switch_id AND channel = OLD.id;
END;

-- `vsan N loadbalancing src-dst-id | src-dst-ox-id` (vsan database): how
-- a port-channel spreads the VSAN's frames over its members, per exchange
-- (0, the default) or per source and destination (1).
ALTER TABLE vsan ADD COLUMN src_dst_id INTEGER NOT NULL DEFAULT 0 CHECK (src_dst_id IN (0, 1));
