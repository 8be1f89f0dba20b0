// Placeholder: the navigation core lands here (issue 3).
