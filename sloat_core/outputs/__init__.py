"""What leaves the core: the PDF report and file exports."""
