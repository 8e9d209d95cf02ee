-- Trigram index behind `contains` on patient names and email: substring search without a full scan.
CREATE VIRTUAL TABLE `patients_fts` USING fts5(first_name, last_name, preferred_name, email, content='patients', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `patients_fts`(`patients_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `patients_fts_ai` AFTER INSERT ON `patients` BEGIN
  INSERT INTO patients_fts(rowid, first_name, last_name, preferred_name, email) VALUES (new.id, new.first_name, new.last_name, new.preferred_name, new.email);
END;
--> statement-breakpoint
CREATE TRIGGER `patients_fts_ad` AFTER DELETE ON `patients` BEGIN
  INSERT INTO patients_fts(patients_fts, rowid, first_name, last_name, preferred_name, email) VALUES ('delete', old.id, old.first_name, old.last_name, old.preferred_name, old.email);
END;
--> statement-breakpoint
CREATE TRIGGER `patients_fts_au` AFTER UPDATE OF first_name, last_name, preferred_name, email ON `patients` BEGIN
  INSERT INTO patients_fts(patients_fts, rowid, first_name, last_name, preferred_name, email) VALUES ('delete', old.id, old.first_name, old.last_name, old.preferred_name, old.email);
  INSERT INTO patients_fts(rowid, first_name, last_name, preferred_name, email) VALUES (new.id, new.first_name, new.last_name, new.preferred_name, new.email);
END;
