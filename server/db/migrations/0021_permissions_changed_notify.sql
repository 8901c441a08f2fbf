-- Every instance caches effective permissions (server/modules/permissions/cache.ts). Any write that can
-- change them tells every instance at commit, whichever code path makes it: role and user permissions,
-- the permissions.useDefaults setting, a user's role, a deleted user. The payload names the table.
CREATE OR REPLACE FUNCTION mp_notify_permissions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mp_permissions_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER role_permissions_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION mp_notify_permissions_changed();
--> statement-breakpoint
CREATE TRIGGER user_permissions_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION mp_notify_permissions_changed();
--> statement-breakpoint
CREATE TRIGGER users_role_changed AFTER UPDATE OF role OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION mp_notify_permissions_changed();
--> statement-breakpoint
CREATE TRIGGER settings_use_defaults_written AFTER INSERT OR UPDATE ON settings
  FOR EACH ROW WHEN (NEW.key = 'permissions.useDefaults') EXECUTE FUNCTION mp_notify_permissions_changed();
--> statement-breakpoint
CREATE TRIGGER settings_use_defaults_deleted AFTER DELETE ON settings
  FOR EACH ROW WHEN (OLD.key = 'permissions.useDefaults') EXECUTE FUNCTION mp_notify_permissions_changed();
