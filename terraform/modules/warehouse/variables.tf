variable "bucket_name" {
  description = "Name of the S3 bucket that holds the warehouse. Bucket names are global, so include something unique such as the account id."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.bucket_name)) && !can(regex("\\.\\.", var.bucket_name))
    error_message = "bucket_name must be 3 to 63 characters of lowercase letters, digits, dots and hyphens, start and end with a letter or digit, and have no two dots in a row."
  }
}

variable "warehouse_prefix" {
  description = "Key prefix of the warehouse inside the bucket, without leading or trailing slash. Tables live under <prefix>/<db>.db/<table>/, and the worker and reader policies grant nothing outside it."
  type        = string
  default     = "warehouse"

  validation {
    # No empty prefix (that would be the whole bucket) and no IAM wildcards (* and ?) that would widen the grants.
    condition     = can(regex("^[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$", var.warehouse_prefix))
    error_message = "warehouse_prefix must be one or more path segments of letters, digits, '.', '_' and '-', separated by single slashes, with no leading or trailing slash; a segment may not start with a dot."
  }
}

variable "encryption" {
  description = "Default encryption of the bucket: \"SSE-S3\" (keys managed by S3) or \"SSE-KMS\" (a KMS key, given in kms_key_arn or created by this module)."
  type        = string
  default     = "SSE-S3"

  validation {
    condition     = contains(["SSE-S3", "SSE-KMS"], var.encryption)
    error_message = "encryption must be \"SSE-S3\" or \"SSE-KMS\"."
  }
}

variable "kms_key_arn" {
  description = "ARN of an existing symmetric KMS key for SSE-KMS. Null with encryption = \"SSE-KMS\" makes the module create a key with rotation on. Ignored with SSE-S3."
  type        = string
  default     = null

  validation {
    condition     = var.kms_key_arn == null || can(regex("^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:key/[A-Za-z0-9-]+$", var.kms_key_arn))
    error_message = "kms_key_arn must be null or a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>); aliases are not accepted because IAM grants need the key ARN."
  }
}

variable "noncurrent_version_expiration_days" {
  description = "Days after which a version that was overwritten or deleted is removed for good. This is the window in which a bad pipeline run can still be undone from versioning."
  type        = number
  default     = 30

  validation {
    condition     = var.noncurrent_version_expiration_days >= 1 && floor(var.noncurrent_version_expiration_days) == var.noncurrent_version_expiration_days
    error_message = "noncurrent_version_expiration_days must be a whole number of at least 1."
  }
}

variable "abort_incomplete_multipart_upload_days" {
  description = "Days after which the parts of a multipart upload that was never completed (a worker that died mid-write) are removed."
  type        = number
  default     = 7

  validation {
    condition     = var.abort_incomplete_multipart_upload_days >= 1 && floor(var.abort_incomplete_multipart_upload_days) == var.abort_incomplete_multipart_upload_days
    error_message = "abort_incomplete_multipart_upload_days must be a whole number of at least 1."
  }
}

variable "access_log_bucket" {
  description = "Name of an existing bucket that receives S3 server access logs of the warehouse bucket, or null for no access logging. It must allow logging.s3.amazonaws.com to write, and must not be the warehouse bucket."
  type        = string
  default     = null

  validation {
    condition     = var.access_log_bucket == null || can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.access_log_bucket))
    error_message = "access_log_bucket must be null or a valid bucket name."
  }
}

variable "access_log_prefix" {
  description = "Key prefix of the access logs in access_log_bucket. Null means \"<bucket_name>/\"."
  type        = string
  default     = null

  validation {
    condition     = var.access_log_prefix == null || can(regex("^[A-Za-z0-9._/-]*$", var.access_log_prefix))
    error_message = "access_log_prefix must be null or letters, digits, '.', '_', '-' and '/'."
  }
}

variable "worker_role_name" {
  description = "Name of the IAM role the pipeline workers run as. Null means \"<bucket_name>-worker\"."
  type        = string
  default     = null

  validation {
    condition     = var.worker_role_name == null || can(regex("^[A-Za-z0-9+=,.@_-]{1,64}$", var.worker_role_name))
    error_message = "worker_role_name must be null or 1 to 64 characters valid in an IAM role name."
  }
}

variable "worker_trusted_services" {
  description = "AWS service principals that may assume the worker role, such as ec2.amazonaws.com for EC2 or EMR instances, or pods.eks.amazonaws.com for EKS Pod Identity."
  type        = list(string)
  default     = ["ec2.amazonaws.com"]

  validation {
    condition     = alltrue([for s in var.worker_trusted_services : can(regex("^[a-z0-9.-]+\\.amazonaws\\.com(\\.cn)?$", s))])
    error_message = "Each of worker_trusted_services must be a service principal such as ec2.amazonaws.com; wildcards are not allowed."
  }
}

variable "worker_trusted_role_arns" {
  description = "ARNs of IAM roles that may assume the worker role (for example a runner's job role). Empty by default."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for a in var.worker_trusted_role_arns : can(regex("^arn:aws[a-z-]*:iam::[0-9]{12}:role/[A-Za-z0-9+=,.@_/-]+$", a))])
    error_message = "Each of worker_trusted_role_arns must be an IAM role ARN; wildcards and whole accounts are not allowed."
  }
}

variable "create_instance_profile" {
  description = "Whether to create an EC2 instance profile for the worker role, for workers that run on EC2 or EMR instances."
  type        = bool
  default     = false
}

variable "tags" {
  description = "Tags added to every resource that takes tags."
  type        = map(string)
  default     = {}
}
