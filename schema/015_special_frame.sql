-- FCIP special frame of an fcip interface (`special-frame peer-wwn W
-- [profile-id N]`, mds-cli-15 case Q): the peer switch's WWN as text
-- (hh:hh:hh:hh:hh:hh:hh:hh), NULL when not configured; the peer's profile
-- id, NULL when not given. Every connection the interface opens starts
-- with the RFC 3821 special frame carrying them (docs/failures.md).
ALTER TABLE fcip_if ADD COLUMN sf_peer_wwn TEXT CHECK (length(sf_peer_wwn) = 23);
ALTER TABLE fcip_if ADD COLUMN sf_profile INTEGER CHECK (sf_profile BETWEEN 1 AND 255);
