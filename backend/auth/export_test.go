package auth

import "time"

// WaitForRedis makes the limiter's API budgets wait up to d for Redis before counting
// in-process: tests of exact shared counts must not see a loaded machine's slow Redis as a
// failed one.
func (l *Limiter) WaitForRedis(d time.Duration) { l.redisWait = d }
