CREATE TABLE "job_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"due_at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "practice_settings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"mark_missed" boolean DEFAULT false NOT NULL,
	"mark_missed_after_hours" integer DEFAULT 2 NOT NULL,
	"updated_at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "appointments_unarrived_idx" ON "appointments" USING btree ("account_id","ends_utc","id") WHERE status = 'booked' AND deleted_at IS NULL;