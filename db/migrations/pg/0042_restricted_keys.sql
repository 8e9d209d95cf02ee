ALTER TABLE "api_keys" ADD COLUMN "previous_last_used_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "permissions" jsonb;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_ips" jsonb;