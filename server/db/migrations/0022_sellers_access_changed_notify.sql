-- Every instance caches whether a seller is blocked (server/plugins/blocked-seller-cache.ts). Any write
-- that can change it tells every instance at commit, whichever code path makes it: `blocked` or
-- `is_new_seller` changed, or the seller deleted. The payload is the seller's id; an empty payload
-- (TRUNCATE) means every seller.
CREATE OR REPLACE FUNCTION mp_notify_seller_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('mp_seller_access_changed', '');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('mp_seller_access_changed', OLD.id::text);
  ELSE
    PERFORM pg_notify('mp_seller_access_changed', NEW.id::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sellers_access_changed AFTER UPDATE OF blocked, is_new_seller ON sellers
  FOR EACH ROW
  WHEN (OLD.blocked IS DISTINCT FROM NEW.blocked OR OLD.is_new_seller IS DISTINCT FROM NEW.is_new_seller)
  EXECUTE FUNCTION mp_notify_seller_access_changed();
--> statement-breakpoint
CREATE TRIGGER sellers_deleted AFTER DELETE ON sellers
  FOR EACH ROW EXECUTE FUNCTION mp_notify_seller_access_changed();
--> statement-breakpoint
CREATE TRIGGER sellers_truncated AFTER TRUNCATE ON sellers
  FOR EACH STATEMENT EXECUTE FUNCTION mp_notify_seller_access_changed();
