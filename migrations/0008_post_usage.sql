CREATE TABLE `post_usage` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`account_id` text NOT NULL,
	`platform` text NOT NULL,
	`part_id` text,
	`kind` text DEFAULT 'post' NOT NULL,
	`cost_usd` real DEFAULT 0 NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `post_usage_account_idx` ON `post_usage` (`account_id`,`at`);--> statement-breakpoint
CREATE INDEX `post_usage_platform_idx` ON `post_usage` (`platform`,`at`);--> statement-breakpoint
CREATE INDEX `post_usage_user_idx` ON `post_usage` (`user_id`,`platform`,`at`);