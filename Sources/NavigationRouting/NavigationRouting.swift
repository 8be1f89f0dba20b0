// Placeholder: route view, planner and deep links land here (issue 4).
