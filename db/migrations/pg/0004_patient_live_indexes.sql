DROP INDEX "patients_account_id_idx";--> statement-breakpoint
DROP INDEX "patients_last_name_idx";--> statement-breakpoint
DROP INDEX "patients_last_first_name_idx";--> statement-breakpoint
DROP INDEX "patients_first_name_idx";--> statement-breakpoint
DROP INDEX "patients_preferred_name_idx";--> statement-breakpoint
DROP INDEX "patients_email_idx";--> statement-breakpoint
DROP INDEX "patients_dob_idx";--> statement-breakpoint
DROP INDEX "patients_custom_reference_idx";--> statement-breakpoint
DROP INDEX "patients_created_at_idx";--> statement-breakpoint
DROP INDEX "patients_updated_at_idx";--> statement-breakpoint
CREATE INDEX "patients_account_id_idx" ON "patients" USING btree ("account_id","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_last_name_idx" ON "patients" USING btree ("account_id","last_name","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_last_first_name_idx" ON "patients" USING btree ("account_id","last_name","first_name","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_first_name_idx" ON "patients" USING btree ("account_id","first_name","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_preferred_name_idx" ON "patients" USING btree ("account_id","preferred_name","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_email_idx" ON "patients" USING btree ("account_id","email","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_dob_idx" ON "patients" USING btree ("account_id","dob","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_custom_reference_idx" ON "patients" USING btree ("account_id","custom_reference","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_created_at_idx" ON "patients" USING btree ("account_id","created_at","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_updated_at_idx" ON "patients" USING btree ("account_id","updated_at","id") WHERE deleted_at IS NULL;