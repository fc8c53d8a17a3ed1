-- Local user accounts of each switch (`username`): passwords only as
-- crypt(3) hashes ($5$ SHA-256 or $6$ SHA-512), never as typed.
CREATE TABLE user_account (
    switch_id INTEGER NOT NULL REFERENCES switch(id) ON DELETE CASCADE,
    name      TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 32),
    hash      TEXT NOT NULL CHECK (substr(hash, 1, 3) IN ('$5$', '$6$')),
    role      TEXT NOT NULL CHECK (role IN ('network-admin', 'network-operator')),
    PRIMARY KEY (switch_id, name)
);

-- A switch comes out of its box with admin/admin, so a new lab can be
-- logged into at once; `mdsim serve` refuses a non-loopback address while
-- that default is unchanged. The trigger covers switches created later
-- (the default lab is populated after the migrations run).
INSERT INTO user_account
    SELECT id, 'admin', '$5$mdsimdflt$UbI4IL0IijurABPLFme/lvSy4kHp84ueNzE2hBYrNt5', 'network-admin'
    FROM switch;
CREATE TRIGGER switch_default_admin AFTER INSERT ON switch BEGIN
    INSERT INTO user_account VALUES
        (NEW.id, 'admin', '$5$mdsimdflt$UbI4IL0IijurABPLFme/lvSy4kHp84ueNzE2hBYrNt5', 'network-admin');
END;
