"""Thousands of games stepped at once as NumPy arrays, for learning at scale: the engine
(:mod:`~pickomino.envs.batched.engine`), the fast bots over a batch
(:mod:`~pickomino.envs.batched.bots`) and the Gymnasium vector environment built on them."""
