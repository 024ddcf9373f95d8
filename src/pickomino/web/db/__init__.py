"""Where the web app keeps what lasts: games, sheets, profiles, results and ratings, and the
schema's migrations."""
