// Placeholder: private-bus harness lands here (issue 2).
