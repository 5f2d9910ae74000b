"""Quality-diversity: pyribs archives of programs, MAP-Elites, HSS, self-play drivers."""
