// Placeholder: the D-Bus layer lands here (issue 2).
