"""Plans as data (S15): `Plan`, `PlanResult`, the plan-data format and plans files."""
