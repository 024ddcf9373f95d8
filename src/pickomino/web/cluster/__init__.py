"""Several server processes on one PostgreSQL database: change notices, leases, presence and
the workers."""
