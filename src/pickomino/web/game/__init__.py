"""One game on the server and the games a process holds: commands and commits, seating,
clocks and votes, the bots' turns, what each client is sent."""
