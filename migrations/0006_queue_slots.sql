ALTER TABLE `schedule_entries` ADD `queue_set_id` text;--> statement-breakpoint
CREATE INDEX `schedule_queue_idx` ON `schedule_entries` (`queue_set_id`,`status`,`requested_at`);--> statement-breakpoint
ALTER TABLE `social_sets` ADD `time_zone` text;--> statement-breakpoint
ALTER TABLE `social_sets` ADD `slots` text DEFAULT '[]' NOT NULL;