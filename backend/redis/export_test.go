package redis

import "context"

// Set writes value at name inside the deployment's namespace.
func (c *Client) Set(ctx context.Context, name, value string) error {
	return c.rdb.Set(ctx, c.Key(name), value, 0).Err()
}
