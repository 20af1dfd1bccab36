/** The admin dashboard's plain values (spec/account.md §3, §5), without zod: pages import them freely. */
export const commentPriorities = ['normal', 'high', 'urgent'] as const;

export const ADMIN_USERS_PAGE_SIZE = 25;
