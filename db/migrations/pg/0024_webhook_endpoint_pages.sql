ALTER TABLE "webhook_attempts" ADD COLUMN "request_headers" jsonb;--> statement-breakpoint
CREATE INDEX "webhook_messages_endpoint_status_idx" ON "webhook_messages" USING btree ("account_id","endpoint_id","status","id");--> statement-breakpoint
CREATE INDEX "webhook_messages_endpoint_type_idx" ON "webhook_messages" USING btree ("account_id","endpoint_id","event_type","id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_endpoint_idx" ON "webhook_attempts" USING btree ("account_id","endpoint_id","created_at");