-- Routed WANs (docs/routing.md). A switch's static routes (`ip route`):
-- a destination and mask, and a next hop, an interface, or both.
CREATE TABLE ip_route (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    dest      INTEGER NOT NULL CHECK (dest BETWEEN 0 AND 4294967295),
    mask      INTEGER NOT NULL CHECK (mask BETWEEN 0 AND 4294967295),
    nexthop   INTEGER NOT NULL DEFAULT 0 CHECK (nexthop BETWEEN 0 AND 4294967295),
    slot      INTEGER NOT NULL DEFAULT 0 CHECK (slot BETWEEN 0 AND 13),
    port      INTEGER NOT NULL DEFAULT 0 CHECK (port BETWEEN 0 AND 8),
    PRIMARY KEY (switch_id, dest, mask, nexthop, slot, port),
    CHECK ((dest & ~mask & 4294967295) = 0),
    CHECK (nexthop <> 0 OR slot <> 0),
    CHECK ((slot = 0) = (port = 0))
);

-- The lab's routers (lab files' `router`): topology, as `link` is; a
-- reset or a reload keeps them.
CREATE TABLE router (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    icmp INTEGER NOT NULL DEFAULT 1 CHECK (icmp IN (0, 1))
);
-- A router's port: address, MTU, the netsim impairments of each way
-- through it, and its cable (to a switch's GE port, or to another
-- router's port, stored on the side its `link` line names first).
CREATE TABLE router_port (
    router_id   INTEGER NOT NULL REFERENCES router(id) ON DELETE CASCADE,
    port        INTEGER NOT NULL CHECK (port BETWEEN 1 AND 8),
    ip          INTEGER NOT NULL CHECK (ip BETWEEN 1 AND 4294967295),
    mask        INTEGER NOT NULL CHECK (mask BETWEEN 0 AND 4294967295),
    mtu         INTEGER NOT NULL DEFAULT 1500 CHECK (mtu BETWEEN 576 AND 9216),
    delay_us    INTEGER NOT NULL DEFAULT 0 CHECK (delay_us BETWEEN 0 AND 150000),
    rate_kbps   INTEGER CHECK (rate_kbps BETWEEN 1000 AND 1000000),
    qsize_kb    INTEGER CHECK (qsize_kb BETWEEN 1 AND 1000),
    drop_random INTEGER NOT NULL DEFAULT 0 CHECK (drop_random BETWEEN 0 AND 10000),
    peer_switch INTEGER REFERENCES switch(id) ON DELETE CASCADE,
    peer_port   TEXT,
    peer_router INTEGER REFERENCES router(id) ON DELETE CASCADE,
    peer_rport  INTEGER CHECK (peer_rport BETWEEN 1 AND 8),
    PRIMARY KEY (router_id, port),
    CHECK ((peer_switch IS NULL) = (peer_port IS NULL)),
    CHECK ((peer_router IS NULL) = (peer_rport IS NULL)),
    CHECK (peer_switch IS NULL OR peer_router IS NULL)
);
CREATE TABLE router_route (
    router_id INTEGER NOT NULL REFERENCES router(id) ON DELETE CASCADE,
    dest      INTEGER NOT NULL CHECK (dest BETWEEN 0 AND 4294967295),
    mask      INTEGER NOT NULL CHECK (mask BETWEEN 0 AND 4294967295),
    nexthop   INTEGER NOT NULL CHECK (nexthop BETWEEN 1 AND 4294967295),
    PRIMARY KEY (router_id, dest, mask),
    CHECK ((dest & ~mask & 4294967295) = 0)
);
