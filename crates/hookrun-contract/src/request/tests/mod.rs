mod errors;
mod finish;
mod task_names;
