-- The lab's hosts (lab files' `host`, docs/hosts.md): topology, as
-- routers are; a reset or a reload keeps them.
CREATE TABLE host (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
-- A host's port eth0-eth3: address, mask, MTU, the default gateway when
-- this port's line gives it, and its cable (to a switch's GE port, a
-- router's port or another host's port; stored on the host's side, on
-- the first host of a host-to-host cable).
CREATE TABLE host_port (
    host_id     INTEGER NOT NULL REFERENCES host(id) ON DELETE CASCADE,
    port        INTEGER NOT NULL CHECK (port BETWEEN 0 AND 3),
    ip          INTEGER NOT NULL CHECK (ip BETWEEN 1 AND 4294967295),
    mask        INTEGER NOT NULL CHECK (mask BETWEEN 0 AND 4294967295),
    mtu         INTEGER NOT NULL DEFAULT 1500 CHECK (mtu BETWEEN 576 AND 9216),
    gateway     INTEGER CHECK (gateway BETWEEN 1 AND 4294967295),
    peer_switch INTEGER REFERENCES switch(id) ON DELETE CASCADE,
    peer_port   TEXT,
    peer_router INTEGER REFERENCES router(id) ON DELETE CASCADE,
    peer_rport  INTEGER CHECK (peer_rport BETWEEN 1 AND 8),
    peer_host   INTEGER REFERENCES host(id) ON DELETE CASCADE,
    peer_hport  INTEGER CHECK (peer_hport BETWEEN 0 AND 3),
    PRIMARY KEY (host_id, port),
    CHECK ((peer_switch IS NULL) = (peer_port IS NULL)),
    CHECK ((peer_router IS NULL) = (peer_rport IS NULL)),
    CHECK ((peer_host IS NULL) = (peer_hport IS NULL)),
    CHECK ((peer_switch IS NOT NULL) + (peer_router IS NOT NULL) + (peer_host IS NOT NULL) <= 1)
);
