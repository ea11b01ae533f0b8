export function redisAnswers(url: string): Promise<boolean>;
