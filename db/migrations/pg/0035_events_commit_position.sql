-- The events feed's order of commit (server/list/feed.ts): each event carries its writing transaction's id.
-- Events already stored all take this migration's transaction id, so they keep their id order, before every
-- later event. Rewrites each day partition of events (a volatile default): run it in a quiet hour.
ALTER TABLE "events" ADD COLUMN "position" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "events_position_idx" ON "events" USING btree ("account_id","position","id");