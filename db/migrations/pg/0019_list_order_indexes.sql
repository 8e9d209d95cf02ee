DROP INDEX "patients_preferred_name_idx";--> statement-breakpoint
DROP INDEX "patients_email_idx";--> statement-breakpoint
DROP INDEX "patients_dob_idx";--> statement-breakpoint
DROP INDEX "patients_custom_reference_idx";--> statement-breakpoint
CREATE INDEX "deleted_entities_account_idx" ON "deleted_entities" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "locations_name_sort_idx" ON "locations" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "locations_created_at_sort_idx" ON "locations" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "locations_updated_at_sort_idx" ON "locations" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "practitioners_first_name_sort_idx" ON "practitioners" USING btree ("account_id","first_name","id");--> statement-breakpoint
CREATE INDEX "practitioners_last_name_sort_idx" ON "practitioners" USING btree ("account_id","last_name","id");--> statement-breakpoint
CREATE INDEX "practitioners_created_at_sort_idx" ON "practitioners" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "practitioners_updated_at_sort_idx" ON "practitioners" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "appointment_types_name_sort_idx" ON "appointment_types" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "appointment_types_duration_minutes_sort_idx" ON "appointment_types" USING btree ("account_id","duration_minutes","id");--> statement-breakpoint
CREATE INDEX "appointment_types_created_at_sort_idx" ON "appointment_types" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "appointment_types_updated_at_sort_idx" ON "appointment_types" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "modalities_name_sort_idx" ON "modalities" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "modalities_created_at_sort_idx" ON "modalities" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "modalities_updated_at_sort_idx" ON "modalities" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "resources_location_id_sort_idx" ON "resources" USING btree ("account_id","location_id","id");--> statement-breakpoint
CREATE INDEX "resources_name_sort_idx" ON "resources" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "resources_sort_order_sort_idx" ON "resources" USING btree ("account_id","sort_order","id");--> statement-breakpoint
CREATE INDEX "resources_created_at_sort_idx" ON "resources" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "resources_updated_at_sort_idx" ON "resources" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "practitioner_availabilities_type_sort_idx" ON "practitioner_availabilities" USING btree ("account_id","type" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "practitioner_availabilities_starts_at_sort_idx" ON "practitioner_availabilities" USING btree ("account_id","starts_at" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "practitioner_availabilities_ends_at_sort_idx" ON "practitioner_availabilities" USING btree ("account_id","ends_at" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "practitioner_availabilities_day_sort_idx" ON "practitioner_availabilities" USING btree ("account_id","day" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "practitioner_availabilities_practitioner_id_sort_idx" ON "practitioner_availabilities" USING btree ("account_id","practitioner_id" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "practitioner_availabilities_location_id_sort_idx" ON "practitioner_availabilities" USING btree ("account_id","location_id" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "practitioner_availabilities_created_at_sort_idx" ON "practitioner_availabilities" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "practitioner_availabilities_updated_at_sort_idx" ON "practitioner_availabilities" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "tags_name_sort_idx" ON "tags" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "tags_sort_order_sort_idx" ON "tags" USING btree ("account_id","sort_order","id");--> statement-breakpoint
CREATE INDEX "tags_created_at_sort_idx" ON "tags" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tags_updated_at_sort_idx" ON "tags" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "payment_methods_active_sort_idx" ON "payment_methods" USING btree ("account_id","active","id");--> statement-breakpoint
CREATE INDEX "payment_methods_sort_order_sort_idx" ON "payment_methods" USING btree ("account_id","sort_order","id");--> statement-breakpoint
CREATE INDEX "payment_methods_created_at_sort_idx" ON "payment_methods" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_methods_updated_at_sort_idx" ON "payment_methods" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "billable_items_name_sort_idx" ON "billable_items" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "billable_items_item_code_sort_idx" ON "billable_items" USING btree ("account_id","item_code" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "billable_items_created_at_sort_idx" ON "billable_items" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "billable_items_updated_at_sort_idx" ON "billable_items" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "referral_sources_name_sort_idx" ON "referral_sources" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "referral_sources_created_at_sort_idx" ON "referral_sources" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "referral_sources_updated_at_sort_idx" ON "referral_sources" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "addresses_created_at_sort_idx" ON "addresses" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "addresses_updated_at_sort_idx" ON "addresses" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "numbers_patient_id_sort_idx" ON "numbers" USING btree ("account_id","patient_id","id");--> statement-breakpoint
CREATE INDEX "numbers_created_at_sort_idx" ON "numbers" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "numbers_updated_at_sort_idx" ON "numbers" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "patient_log_tags_patient_log_id_sort_idx" ON "patient_log_tags" USING btree ("account_id","patient_log_id","id");--> statement-breakpoint
CREATE INDEX "patient_log_tags_created_at_sort_idx" ON "patient_log_tags" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "patient_log_tags_updated_at_sort_idx" ON "patient_log_tags" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "patient_logs_updated_at_sort_idx" ON "patient_logs" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "clinical_notes_created_at_sort_idx" ON "clinical_notes" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "clinical_notes_updated_at_sort_idx" ON "clinical_notes" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "form_templates_name_sort_idx" ON "form_templates" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "form_templates_created_at_sort_idx" ON "form_templates" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "form_templates_updated_at_sort_idx" ON "form_templates" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "files_file_name_sort_idx" ON "files" USING btree ("account_id","file_name","id");--> statement-breakpoint
CREATE INDEX "files_created_at_sort_idx" ON "files" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "files_updated_at_sort_idx" ON "files" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "care_plans_name_sort_idx" ON "care_plans" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "care_plans_created_at_sort_idx" ON "care_plans" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "care_plans_updated_at_sort_idx" ON "care_plans" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "appointments_patient_id_sort_idx" ON "appointments" USING btree ("account_id","patient_id","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "appointments_practitioner_id_sort_idx" ON "appointments" USING btree ("account_id","practitioner_id","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "appointments_location_id_sort_idx" ON "appointments" USING btree ("account_id","location_id","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "line_items_created_at_sort_idx" ON "line_items" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "line_items_updated_at_sort_idx" ON "line_items" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "payment_allocations_created_at_sort_idx" ON "payment_allocations" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_allocations_updated_at_sort_idx" ON "payment_allocations" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "refunds_payment_id_sort_idx" ON "refunds" USING btree ("account_id","payment_id","id");--> statement-breakpoint
CREATE INDEX "refunds_created_at_sort_idx" ON "refunds" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "refunds_updated_at_sort_idx" ON "refunds" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "patients_preferred_name_idx" ON "patients" USING btree ("account_id","preferred_name" NULLS FIRST,"id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_email_idx" ON "patients" USING btree ("account_id","email" NULLS FIRST,"id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_dob_idx" ON "patients" USING btree ("account_id","dob" NULLS FIRST,"id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "patients_custom_reference_idx" ON "patients" USING btree ("account_id","custom_reference" NULLS FIRST,"id") WHERE deleted_at IS NULL;