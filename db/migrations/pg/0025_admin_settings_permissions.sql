-- settings.read and settings.manage (practice setup in the portal) are the admin role's by default: accounts made before them get them too (an admin role that already has one keeps its list).
UPDATE "roles" SET "permissions" = "permissions" || '["settings.read", "settings.manage"]'::jsonb WHERE "key" = 'admin' AND NOT ("permissions" ?| array['settings.read', 'settings.manage']);
