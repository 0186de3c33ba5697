variable "region" {
  description = "AWS region of the warehouse bucket, and the pipelines' S3 region."
  type        = string
  default     = "eu-west-1"

  validation {
    condition     = can(regex("^[a-z]{2}(-[a-z]+)+-[0-9]+$", var.region))
    error_message = "region must be an AWS region name such as eu-west-1."
  }
}

variable "bucket_name" {
  description = "Name of the warehouse bucket; must be globally unique, for example \"changelake-<account-id>-<region>\"."
  type        = string
}

variable "warehouse_prefix" {
  description = "Key prefix of the warehouse inside the bucket, without leading or trailing slash."
  type        = string
  default     = "warehouse"
}

variable "encryption" {
  description = "\"SSE-S3\" or \"SSE-KMS\"; with SSE-KMS and no kms_key_arn the module creates a key."
  type        = string
  default     = "SSE-S3"
}

variable "kms_key_arn" {
  description = "ARN of an existing KMS key for SSE-KMS, or null."
  type        = string
  default     = null
}

variable "access_log_bucket" {
  description = "Existing bucket for S3 server access logs, or null for none."
  type        = string
  default     = null
}
