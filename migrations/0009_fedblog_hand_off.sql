CREATE TABLE `network_withdrawals` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`account_id` text NOT NULL,
	`platform` text NOT NULL,
	`network_scheduled_id` text NOT NULL,
	`last_error` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `network_scheduled_id` text;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `handed_off_for` integer;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `hand_off_note` text;--> statement-breakpoint
CREATE INDEX `schedule_hand_off_idx` ON `schedule_entries` (`platform`,`fire_at`) WHERE status = 'pending' AND network_scheduled_id IS NULL AND hand_off_note IS NULL;--> statement-breakpoint
CREATE INDEX `schedule_handed_off_idx` ON `schedule_entries` (`network_scheduled_id`) WHERE network_scheduled_id IS NOT NULL;