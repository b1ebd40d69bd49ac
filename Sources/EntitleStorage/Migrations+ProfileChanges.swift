import EntitleModel

/// Migrations whose SQL differs per engine: the change feed of the profile cache (issue 23), written by triggers
/// in the writing transaction, so every writer (any instance, `entitle admin`, a future code path) feeds it.
extension Migrations {
    package static let perEngine: [(version: Int, sqlite: [String], postgres: [String])] = [
        (
            90,
            [
                """
                CREATE TABLE IF NOT EXISTS profile_changes (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT, requestor_id TEXT NOT NULL, client_id TEXT NOT NULL,
                    device_id TEXT NOT NULL)
                """,
                """
                CREATE TRIGGER IF NOT EXISTS profiles_inserted AFTER INSERT ON profiles BEGIN
                    INSERT INTO profile_changes (requestor_id, client_id, device_id)
                    VALUES (NEW.requestor_id, NEW.client_id, NEW.device_id);
                END
                """,
                """
                CREATE TRIGGER IF NOT EXISTS profiles_updated AFTER UPDATE ON profiles BEGIN
                    INSERT INTO profile_changes (requestor_id, client_id, device_id)
                    VALUES (NEW.requestor_id, NEW.client_id, NEW.device_id);
                END
                """,
                """
                CREATE TRIGGER IF NOT EXISTS profiles_deleted AFTER DELETE ON profiles BEGIN
                    INSERT INTO profile_changes (requestor_id, client_id, device_id)
                    VALUES (OLD.requestor_id, OLD.client_id, OLD.device_id);
                END
                """,
            ],
            [
                """
                CREATE OR REPLACE FUNCTION entitle_profile_changed() RETURNS trigger AS $$
                BEGIN
                    IF TG_OP = 'DELETE' THEN
                        PERFORM pg_notify('entitle_profiles', OLD.requestor_id || chr(10) || OLD.client_id || chr(10) || OLD.device_id);
                    ELSE
                        PERFORM pg_notify('entitle_profiles', NEW.requestor_id || chr(10) || NEW.client_id || chr(10) || NEW.device_id);
                    END IF;
                    RETURN NULL;
                END
                $$ LANGUAGE plpgsql
                """,
                "DROP TRIGGER IF EXISTS profiles_changed ON profiles",
                """
                CREATE TRIGGER profiles_changed AFTER INSERT OR UPDATE OR DELETE ON profiles
                FOR EACH ROW EXECUTE FUNCTION entitle_profile_changed()
                """,
            ]
        )
    ]
}
