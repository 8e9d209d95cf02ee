CREATE INDEX "events_type_idx" ON "events" USING btree ("account_id","type","id");--> statement-breakpoint
CREATE INDEX "events_occurred_at_idx" ON "events" USING btree ("account_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "events_entity_idx" ON "events" USING btree ("account_id","entity","entity_id","id");