-- Every portal instance keeps per-request caches (verified API tokens, favorites) and LISTENs on
-- portal_cache (lib/portal/cache-invalidation.ts): a change committed by any writer, another instance or
-- plain SQL, tells them which entry to drop. Notifications are sent at commit, not on rollback.
CREATE FUNCTION "portal_notify_favorites_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('portal_cache', 'favorites:' || OLD.user_id);
  ELSE
    PERFORM pg_notify('portal_cache', 'favorites:' || NEW.user_id);
    IF TG_OP = 'UPDATE' AND OLD.user_id <> NEW.user_id THEN
      PERFORM pg_notify('portal_cache', 'favorites:' || OLD.user_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "component_favorites_notify" AFTER INSERT OR UPDATE OR DELETE ON "component_favorites"
  FOR EACH ROW EXECUTE FUNCTION "portal_notify_favorites_change"();
--> statement-breakpoint
-- A token's use (last_used_at) changes nothing a cache answers: only what decides who it is and whether it is live.
CREATE FUNCTION "portal_notify_token_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_cache', 'tokens:' || OLD.token_hash);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "portal_api_tokens_notify" AFTER UPDATE OF "revoked_at", "granted_roles", "groups", "user_id", "user_name", "email", "token_hash" OR DELETE ON "portal_api_tokens"
  FOR EACH ROW EXECUTE FUNCTION "portal_notify_token_change"();
