CREATE INDEX IF NOT EXISTS "webhook_messages_sweep_idx" ON "webhook_messages" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deleted_entities_sweep_idx" ON "deleted_entities" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_sweep_idx" ON "events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "idempotency_keys_sweep_idx" ON "idempotency_keys" USING btree ("created_at");